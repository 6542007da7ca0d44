/** `scheme://user:password@`: the password runs to the last `@` before the host's path (a raw `@` in it too). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*):([^\s/?#]*)@/gi;
/** `password=...` in a URL's query or a libpq `key=value` connection string. */
const PASSWORD_PARAM = /(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&;]*)/gi;

/**
 * The text with the password of every URL or connection string in it replaced by `***`, for
 * whatever shows or stores one (messages, the lock table's command line): the user stays, so
 * the URL still says which account.
 */
export function maskUrlCredentials(text: string): string {
  return text
    .replace(USERINFO, (_match, head: string, password: string) =>
      password === '' ? `${head}:@` : `${head}:***@`,
    )
    .replace(PASSWORD_PARAM, '$1***');
}
