// docs/reference/cli.md: every command, usage line and option, from the help texts as `signin` prints them
// (src/cli/help.ts), the CLI run in this process for `--help` only.
import { run } from '../../src/cli/main.ts';
import { code, fence, plain, table } from './markdown.ts';

/** What `signin ARGS` prints and returns, run in this process with no environment. */
export async function signin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdin: '', stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: {} });
  return { code, stdout, stderr };
}

async function helpOf(args: string[]): Promise<string> {
  const result = await signin([...args, '--help']);
  if (result.code !== 0) throw new Error(`signin ${[...args, '--help'].join(' ')} exited ${result.code}: ${result.stderr.trim()}`);
  return result.stdout;
}

export interface HelpOption {
  /** As the help writes it, e.g. `--redirect-uri URI`. */
  spec: string;
  description: string;
}

export interface CommandGroup {
  name: string;
  help: string;
  /** One per command line of the usage, continuation lines joined. */
  synopses: string[];
  options: HelpOption[];
}

/** The usage lines of a help text: `Usage: signin ...`, or the indented `signin ...` lines under `Usage:`. */
function synopsesOf(help: string): string[] {
  const lines = help.split('\n');
  const first = /^Usage: (signin .*)$/.exec(lines[0])?.[1];
  if (first) return [first.trim()];
  if (lines[0] !== 'Usage:') throw new Error(`a help text that does not start with its usage: ${lines[0]}`);
  const synopses: string[] = [];
  for (const line of lines.slice(1)) {
    if (!line.trim()) break;
    if (/^ {2}signin /.test(line)) synopses.push(line.trim());
    else synopses[synopses.length - 1] += ` ${line.trim()}`;
  }
  return synopses;
}

const OPTION_LINE = /^ {2}(--?[a-z][a-z-]*(?: [^ ]+)*)( {2,})(\S.*)$/;

/** The option lines of a help text, wherever they are, with their continuation lines. */
export function optionsOf(help: string): HelpOption[] {
  const options: HelpOption[] = [];
  let open: HelpOption | undefined;
  for (const line of help.split('\n')) {
    const match = OPTION_LINE.exec(line);
    if (match) {
      open = { spec: match[1], description: match[3].trim() };
      options.push(open);
    } else if (open && /^ {4,}\S/.test(line)) {
      open.description += ` ${line.trim()}`;
    } else {
      open = undefined;
    }
  }
  return options;
}

/** The words that name a command: `signin user show ACCOUNT [--json]` is `user show`. */
export const commandWords = (synopsis: string): string[] => {
  const words = synopsis.split(' ').slice(1);
  const end = words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w));
  return end === -1 ? words : words.slice(0, end);
};

/** The command without its options: `signin user show ACCOUNT`. */
const shortForm = (synopsis: string): string => {
  const words = synopsis.split(' ');
  const end = words.findIndex((w) => /^[-[(]/.test(w));
  return (end === -1 ? words : words.slice(0, end)).join(' ');
};

/** `signin --help`'s list of commands: `user show` -> `show one account`. */
function mainSummaries(mainHelp: string): Map<string, string> {
  const lines = mainHelp
    .slice(mainHelp.indexOf('\nCommands:\n') + 1)
    .split('\n\n')[0]
    .split('\n')
    .slice(1);
  // The summaries start in one column; a command too long for it has its summary on the next line.
  const starts = lines.map((line) => /^ {2}\S.*? {2,}(?=\S)/.exec(line)?.[0].length).filter((n) => n !== undefined);
  const column = Math.max(...starts);
  const commandOf = (text: string): string =>
    text
      .split(' ')
      .filter((w) => /^[a-z][a-z-]*$/.test(w))
      .join(' ');
  const summaries = new Map<string, string>();
  let pending: string | undefined;
  for (const line of lines) {
    if (line.startsWith(' '.repeat(column))) {
      if (pending) summaries.set(pending, line.trim());
      pending = undefined;
    } else if (line.length > column && line[column - 1] === ' ') {
      summaries.set(commandOf(line.slice(0, column).trim()), line.slice(column).trim());
    } else {
      pending = commandOf(line.trim());
    }
  }
  return summaries;
}

/** Every command group `signin --help` lists, with the help the group prints. */
export async function commandGroups(): Promise<{ mainHelp: string; groups: CommandGroup[] }> {
  const mainHelp = await helpOf([]);
  const names = [...mainSummaries(mainHelp).keys()].map((words) => words.split(' ')[0]).filter((name, i, all) => all.indexOf(name) === i);
  const groups: CommandGroup[] = [];
  for (const name of names) {
    const help = await helpOf([name]);
    const synopses = synopsesOf(help);
    for (const synopsis of synopses) {
      const words = commandWords(synopsis);
      if (words[0] !== name) throw new Error(`signin ${name} --help shows the usage of another group: ${synopsis}`);
      // Each subcommand is dispatched and answers --help with its group's text.
      if (words.length > 1 && (await helpOf(words)) !== help)
        throw new Error(`signin ${words.join(' ')} --help differs from signin ${name} --help`);
    }
    groups.push({ name, help, synopses, options: optionsOf(help) });
  }
  return { mainHelp, groups };
}

/** The one-line summary of a command: `signin --help`'s, else the sentence of its group's help that starts with its name. */
function summaryOf(words: string[], summaries: Map<string, string>, help: string): string {
  const listed = summaries.get(words.join(' '));
  if (listed) return listed;
  const action = words.at(-1)!;
  const sentence = help
    .split('\n\n')
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .find((paragraph) => paragraph.startsWith(`${action} `));
  if (!sentence) throw new Error(`signin ${words.join(' ')}: neither signin --help nor signin ${words[0]} --help says what it does`);
  return sentence.slice(action.length + 1).split(/[:.;]/)[0];
}

const anchor = (group: string): string => `#signin-${group}`;

export async function cliRegions(): Promise<Record<string, string>> {
  const { mainHelp, groups } = await commandGroups();
  const summaries = mainSummaries(mainHelp);
  const documented = new Set(groups.flatMap((g) => g.synopses.map((s) => commandWords(s).join(' '))));
  for (const words of summaries.keys()) {
    if (!documented.has(words))
      throw new Error(`signin --help lists "${words}", which no usage line of signin ${words.split(' ')[0]} --help shows`);
  }

  const overview = table(
    ['Command', 'What it does'],
    groups.flatMap((g) =>
      g.synopses.map((s) => [`[${code(shortForm(s))}](${anchor(g.name)})`, plain(summaryOf(commandWords(s), summaries, g.help))]),
    ),
  );
  const commands = [overview, '`signin --help` prints:', fence('text', mainHelp)].join('\n\n');

  const sections = groups.map((g) => {
    const rows = g.synopses.map((s) => [code(s), plain(summaryOf(commandWords(s), summaries, g.help))]);
    return [
      `## ${code(`signin ${g.name}`)}`,
      table(['Usage', 'What it does'], rows),
      table(
        ['Option', 'Meaning'],
        g.options.map((o) => [code(o.spec), plain(o.description)]),
      ),
      `\`signin ${g.name} --help\` prints:`,
      fence('text', g.help),
    ].join('\n\n');
  });
  return { commands, groups: sections.join('\n\n') };
}
