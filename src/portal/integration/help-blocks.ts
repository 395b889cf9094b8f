// The integration help as the page shows it: sections, each with its code blocks. One function builds
// each section (integration.ts lists them per application type), so a new library or sign-in path is one
// more function and one more line there. Every block has its own id (the copy button's target, and what
// the tests read) and may carry a note; the `state` note goes next to every authorization URL.
import type { PortalKey } from '../portal-messages.ts';

export interface CodeBlock {
  /** The `<pre>`'s id: `help-…`. */
  id: string;
  /** A heading above the block; none when the section's heading says it all. */
  title?: PortalKey;
  /** A sentence under the heading (e.g. the `state` rule next to an authorization URL). */
  note?: PortalKey;
  /** The code's language, for the page's `data-lang` (no highlighting: the page carries no script for it). */
  lang: 'shell' | 'url' | 'javascript' | 'python' | 'kotlin' | 'swift';
  code: string;
}

export interface ClaimsTable {
  /** What the ID token says about the user. */
  idToken: string[];
  /** What userinfo answers, per scope this application asks for. */
  userinfo: Array<{ scope: string; claims: string[] }>;
}

export interface HelpSection {
  /** The section's id: `help-section-…`. */
  id: string;
  title: PortalKey;
  intro?: PortalKey;
  blocks: CodeBlock[];
  claims?: ClaimsTable;
}

/** The note that goes with every authorization URL. */
export const STATE_NOTE: PortalKey = 'help.stateRule';
