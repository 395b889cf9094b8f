// The shape every catalog must have: exactly the keys of the French (default) catalog.
import type { fr } from './fr.ts';

export type Messages = { readonly [K in keyof typeof fr]: string };
export type MessageKey = keyof Messages;
/** Values substituted for `{name}` placeholders; a number also picks the form of a plural block (plural.ts). */
export type MessageVars = Readonly<Record<string, string | number>>;
