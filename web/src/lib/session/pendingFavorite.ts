/**
 * A Favorite pressed while signed out (issue #39, m14): the spec clears the selection and opens
 * the sign-in popup; the store is kept here, for this tab, and favourited once the sign-in
 * succeeds (useSignIn), so the press is not lost.
 */
import { embedded } from "../embed";

const KEY = "locator_pending_favorite";

export function rememberFavorite(id: number): void {
  if (embedded) return; // the widget stores nothing in the browser (docs/embed.md)
  try {
    sessionStorage.setItem(KEY, String(id));
  } catch {
    // storage refused (private mode): the press is lost, as before
  }
}

/** The remembered store, once: reading it forgets it. */
export function takePendingFavorite(): number | null {
  if (embedded) return null;
  try {
    const v = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    const id = Number(v);
    return v !== null && Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
