// Markdown pieces the reference pages are written with.
import { stringify } from 'yaml';

/** A table cell: pipes escaped (inside code spans too, as GitHub's tables require). */
const cell = (text: string): string => (text === '' ? '—' : text.replaceAll('|', '\\|'));
export const table = (header: string[], rows: string[][]): string =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join(
    '\n',
  );
export const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
/** Plain text (a help line) made safe for Markdown: nothing in it is read as markup. */
export const plain = (text: string): string => text.replace(/[\\*<>`]|(?<!\w)_|_(?!\w)/g, (c) => `\\${c}`);
/** A value as it would be written in the YAML file, on one line. */
export const yamlValue = (value: unknown): string => stringify(value, { collectionStyle: 'flow', lineWidth: 0 }).trim();
export const fence = (lang: string, text: string): string => `\`\`\`${lang}\n${text.trimEnd()}\n\`\`\``;
