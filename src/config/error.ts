/**
 * The error a bad environment variable raises (src/config/config.ts); in its own file so that the
 * configuration parts in src/config/ (push, webhooks) can raise it without importing config.ts.
 */
/** Raised for a bad environment variable; the message names it. */
export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}
