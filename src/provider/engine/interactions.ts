// Ending an interaction step on the interaction the request has already loaded. Relies on oidc-provider
// 9.13 `lib/provider.js`: `interactionResult` sets `result` on the Interaction (merged over its
// `lastSubmission` unless the result is an error or no merge is asked), saves it for what is left of its
// lifetime (`exp - epochTime()`), and `interactionFinished` answers 303 to its `returnTo` with no body.
// Both load the interaction again (and its session) first; the engine's resume, where the 303 leads,
// checks the interaction against the browser's session again, so the second load only costs round trips.
import type { ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';

/** The engine's Interaction, as `interactionDetails` gives it. */
export type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Saves `result` on `interaction` and answers with the engine's 303 to its next step. */
export async function finishInteraction(
  res: ServerResponse,
  interaction: InteractionDetails,
  result: InteractionResults,
  { mergeWithLastSubmission }: { mergeWithLastSubmission: boolean },
): Promise<void> {
  interaction.result = mergeWithLastSubmission && !('error' in result) ? { ...interaction.lastSubmission, ...result } : result;
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  res.statusCode = 303;
  res.setHeader('Location', interaction.returnTo);
  res.setHeader('Content-Length', '0');
  res.end();
}
