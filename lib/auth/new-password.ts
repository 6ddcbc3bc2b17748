/** The shortest password a new account may choose, counted in characters (not bytes), as people count. */
export const MIN_PASSWORD = 12;

/** Why a new account's password is refused, saying exactly what to fix; null when it will do. */
export function newPasswordRefusal(password: string): string | null {
  const length = [...password].length;
  if (length >= MIN_PASSWORD) return null;
  return `Choose a password of at least ${MIN_PASSWORD} characters: this one has ${length}.`;
}
