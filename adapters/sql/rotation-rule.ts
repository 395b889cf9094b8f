// The family rule of a rotation (../refresh-family.ts) as SQL on the family's row `f`, written once for the
// two statements that apply it: one rotation's, on its parameters (refresh-tokens.ts), and several
// rotations', on the columns of one row each (rotation-batches.ts).
// - A live token (`presented`) becomes the head, its payload with it, and the family's live tokens are
//   its successor alone: the siblings it had are retired with the previous head.
// - The head itself within the grace leaves the head where it is (its rotation time too, so a grace never
//   extends itself) and adds its successor beside the live ones.

/** The SQL of each value a rotation brings: parameters with their types, or a row's columns. */
export interface RotationValues {
  presented: string;
  now: string;
  grace: string;
  /** The successor's expiry, storage key and payload (NULL key when the rotation issues none). */
  expiresAt: string;
  successorKey: string;
  successor: string;
}

/** `set`: the family's row once moved; `moves`: when the presented token may move it. */
export function rotationRule(v: RotationValues): { set: string; moves: string } {
  const isHead = `f.head_parent = ${v.presented}`;
  return {
    set: `head = CASE WHEN ${isHead} THEN f.head ELSE f.live -> ${v.presented} END,
           head_rotated_at = CASE WHEN ${isHead} THEN f.head_rotated_at ELSE ${v.now} END,
           live = CASE WHEN ${isHead} THEN f.live ELSE '{}'::jsonb END
                  || CASE WHEN ${v.successorKey} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object(${v.successorKey}, ${v.successor}) END,
           head_parent = ${v.presented},
           expires_at = LEAST(GREATEST(f.expires_at, ${v.expiresAt}), f.absolute_exp)`,
    // Within the grace: rotated at most `grace` seconds ago, and not after `now` (a clock set back since the
    // rotation is outside the grace, not inside a grace that lasts until the clock catches up).
    moves: `f.live -> ${v.presented} IS NOT NULL
       OR (${isHead} AND f.head_rotated_at <= ${v.now} AND f.head_rotated_at > ${v.now} - ${v.grace})`,
  };
}
