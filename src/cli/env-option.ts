import { Option } from 'commander';

/** The environment variable of an option: `--drain-seconds <n>` reads `RCML_DRAIN_SECONDS`. */
export function envVarOf(flags: string): string {
  const long = /--([a-z0-9][a-z0-9-]*)/.exec(flags)?.[1];
  if (long === undefined) throw new Error(`no long flag in ${JSON.stringify(flags)}`);
  return `RCML_${long.replace(/-/g, '_').toUpperCase()}`;
}

/**
 * An option that also reads an environment variable (`RCML_` + its long flag, unless `env`
 * names another); the command line wins over the environment, the environment over the default.
 */
export function envOption(flags: string, description: string, env: string = envVarOf(flags)): Option {
  return new Option(flags, description).env(env);
}
