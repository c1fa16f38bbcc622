import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState, type ReactNode } from "react";
import { meOptions } from "./api/get-me";
import { PopupContext, type Popup, type PopupState } from "./context";
import type { PopupView } from "./types";

const CLOSED: PopupState = { open: false, view: "sign-in" };

/**
 * Asks for the current customer at start (store/customers/me, kept in the query cache for the
 * app's life: useCustomer, useFavorites) and holds the auth popup's state. Inside a
 * QueryClientProvider and the router (logout goes to /).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  useQuery(meOptions());
  const [popup, setPopup] = useState<PopupState>(CLOSED);
  const openPopup = useCallback((view: PopupView, email?: string) => setPopup({ open: true, view, email }), []);
  const closePopup = useCallback(() => setPopup(CLOSED), []);
  const value = useMemo<Popup>(() => ({ ...popup, openPopup, closePopup }), [popup, openPopup, closePopup]);
  return <PopupContext.Provider value={value}>{children}</PopupContext.Provider>;
}
