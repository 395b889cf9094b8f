// A message that could not be sent is logged by its error code only: a mail server's error text may
// quote the recipient's address, and the message itself holds a live link.
export function logMailFailure(error: unknown): void {
  const code = (error as { code?: unknown; responseCode?: unknown } | undefined) ?? {};
  console.error('e-mail not sent', { code: String(code.code ?? 'unknown'), responseCode: code.responseCode ?? null });
}
