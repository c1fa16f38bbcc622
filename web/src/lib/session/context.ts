import { createContext, useContext } from "react";
import type { PhysicalStore } from "../../api/types";
import type { Customer, PopupView } from "./types";

export type LoginState = "unknown" | "logged-in" | "logged-out";

export interface PopupState {
  open: boolean;
  view: PopupView;
  /** The email entered on the reset view, shown by the reset-link view. */
  email?: string;
}

export interface Session {
  loginState: LoginState;
  customer: Customer | null;
  /** Favourite stores, newest first; empty when logged out. */
  favorites: PhysicalStore[];
  isFavorite: (storeId: number) => boolean;
  /**
   * The detail panel's Favorite toggle (spec section 4). Logged out: opens the sign-in popup and
   * answers "sign-in" (the caller clears the selected store). Otherwise adds the store to the front
   * or removes it, locally whether or not the server call succeeds, and answers the new state.
   */
  toggleFavorite: (store: PhysicalStore) => "sign-in" | "added" | "removed";
  /** Removes a favourite (the heart in the favourites view); same handling as the toggle. */
  removeFavorite: (store: PhysicalStore) => void;
  /** Stores the customer after a successful sign-in, loads their favourites and closes the popup. */
  signedIn: (customer: Customer) => void;
  /** Signs out, empties favourites and goes to /. */
  logout: () => Promise<void>;
  popup: PopupState;
  openPopup: (view: PopupView, email?: string) => void;
  /** Closes the popup and resets its view to sign-in. */
  closePopup: () => void;
}

export const SessionContext = createContext<Session | null>(null);

/** The session (customer, favourites, auth popup). Needs a SessionProvider above. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs a SessionProvider");
  return session;
}

/** The popup part of the session. */
export function usePopup() {
  const { popup, openPopup, closePopup } = useSession();
  return { ...popup, openPopup, closePopup };
}
