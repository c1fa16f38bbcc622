import { createContext, useContext } from "react";
import type { PopupView } from "./types";

export interface PopupState {
  open: boolean;
  view: PopupView;
  /**
   * The email entered on the reset view, shown by the reset-link view; on the sign-in view, the
   * email just signed up with (the view confirms the sign-up and fills it in).
   */
  email?: string;
}

export interface Popup extends PopupState {
  openPopup: (view: PopupView, email?: string) => void;
  /** Closes the popup and resets its view to sign-in. */
  closePopup: () => void;
}

export const PopupContext = createContext<Popup | null>(null);

/** The auth popup (open, view, email) and its controls. Needs a SessionProvider above. */
export function usePopup(): Popup {
  const popup = useContext(PopupContext);
  if (!popup) throw new Error("usePopup needs a SessionProvider");
  return popup;
}
