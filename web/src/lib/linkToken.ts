/**
 * The token of an emailed link (reset, email confirmation): everything after the first "=" of the query string, so
 * "?token=abc" gives "abc". Empty when the query has no "=".
 */
export function tokenFromSearch(search: string): string {
  const at = search.indexOf("=");
  return at === -1 ? "" : search.slice(at + 1);
}
