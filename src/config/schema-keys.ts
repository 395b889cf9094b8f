// The keys the config schema knows at a path of the file (`ttl` → accessToken, idToken, ...), for the
// "did you mean" of an unknown key. Reads the validation library's own description of each schema.
import type { z } from 'zod';

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be, seen through defaults, optionals, pipes and unions. */
function objectsOf(schema: z.ZodType): Array<Record<string, z.ZodType>> {
  const def = defOf(schema);
  if (def.shape) return [def.shape];
  const inner = def.innerType ?? def.in;
  if (inner) return objectsOf(inner);
  if (def.options) return def.options.flatMap(objectsOf);
  return [];
}

/** What one key (or list index) of `schema` leads to. */
function childrenOf(schema: z.ZodType, key: string): z.ZodType[] {
  const def = defOf(schema);
  const inner = def.innerType ?? def.in;
  if (inner) return childrenOf(inner, key);
  if (def.options) return def.options.flatMap((option) => childrenOf(option, key));
  if (def.element) return [def.element];
  if (def.valueType) return [def.valueType];
  return def.shape && Object.hasOwn(def.shape, key) ? [def.shape[key]] : [];
}

export function schemaKeysAt(schema: z.ZodType, path: readonly string[]): string[] {
  let schemas = [schema];
  for (const key of path) schemas = schemas.flatMap((s) => childrenOf(s, key));
  return [...new Set(schemas.flatMap(objectsOf).flatMap((shape) => Object.keys(shape)))];
}
