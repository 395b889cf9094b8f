// A benchmark's numeric settings from the environment, refused by name when they are not a count.

/** The whole number (1 or more) in environment variable `name`, else `fallback`. */
export function countSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number, 1 or more (got "${raw}")`);
  return value;
}
