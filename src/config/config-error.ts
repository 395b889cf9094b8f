export interface ConfigProblem {
  /** Dotted path of the field in the config file, e.g. `ttl.accessToken`. */
  field: string;
  message: string;
}

/** A config file that cannot be used; its message names every wrong field. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[], source?: string) {
    const where = source ? ` in ${source}` : '';
    super(`invalid configuration${where}:\n${problems.map((p) => `  - ${p.field}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
