import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import type { PhysicalStore } from "../../api/types";
import { addFavorite } from "./api/add-favorite";
import { getMe } from "./api/get-me";
import { removeFavorite as removeFavoriteCall } from "./api/remove-favorite";
import { signOut } from "./api/sign-out";
import { SessionContext, type LoginState, type PopupState, type Session } from "./context";
import { ADD_FAVORITE_ERROR, REMOVE_FAVORITE_ERROR, toggledFavorites } from "./favorites";
import type { Customer, PopupView } from "./types";

const CLOSED: PopupState = { open: false, view: "sign-in" };

/**
 * Holds the login state, the favourites and the auth popup. At start it asks for the current
 * customer (store/customers/me); a failure means logged out. Must sit inside the router.
 */
export function SessionProvider({
  children,
  loadOnStart = true,
  initialCustomer = null,
}: {
  children: ReactNode;
  /** Tests turn the startup call off. */
  loadOnStart?: boolean;
  initialCustomer?: Customer | null;
}) {
  const navigate = useNavigate();
  const [customer, setCustomer] = useState<Customer | null>(initialCustomer);
  const [loginState, setLoginState] = useState<LoginState>(initialCustomer ? "logged-in" : loadOnStart ? "unknown" : "logged-out");
  const [favorites, setFavorites] = useState<PhysicalStore[]>(initialCustomer?.favorites_phstores ?? []);
  const [popup, setPopup] = useState<PopupState>(CLOSED);

  useEffect(() => {
    if (!loadOnStart) return;
    const controller = new AbortController();
    getMe(controller.signal).then(
      (me) => {
        setCustomer(me);
        setFavorites(me.favorites_phstores ?? []);
        setLoginState("logged-in");
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        void error;
        setLoginState("logged-out");
      },
    );
    return () => controller.abort();
  }, [loadOnStart]);

  const openPopup = useCallback((view: PopupView, email?: string) => setPopup({ open: true, view, email }), []);
  const closePopup = useCallback(() => setPopup(CLOSED), []);

  const isFavorite = useCallback((id: number) => favorites.some((s) => s.id === id), [favorites]);

  const removeFavorite = useCallback((store: PhysicalStore) => {
    setFavorites((list) => list.filter((s) => s.id !== store.id));
    removeFavoriteCall(store.id).catch(() => console.log(REMOVE_FAVORITE_ERROR));
  }, []);

  const toggleFavorite = useCallback(
    (store: PhysicalStore): "sign-in" | "added" | "removed" => {
      if (loginState !== "logged-in") {
        setPopup({ open: true, view: "sign-in" });
        return "sign-in";
      }
      const wasFavorite = favorites.some((s) => s.id === store.id);
      setFavorites((list) => toggledFavorites(list, store));
      if (wasFavorite) {
        removeFavoriteCall(store.id).catch(() => console.log(REMOVE_FAVORITE_ERROR));
        return "removed";
      }
      addFavorite(store.id).catch(() => console.log(ADD_FAVORITE_ERROR));
      return "added";
    },
    [loginState, favorites],
  );

  const signedIn = useCallback((me: Customer) => {
    setCustomer(me);
    setFavorites(me.favorites_phstores ?? []);
    setLoginState("logged-in");
    setPopup(CLOSED);
  }, []);

  const logout = useCallback(async () => {
    try {
      await signOut();
    } catch {
      // Logged out locally either way.
    }
    setCustomer(null);
    setFavorites([]);
    setLoginState("logged-out");
    setPopup(CLOSED);
    void navigate("/");
  }, [navigate]);

  const value = useMemo<Session>(
    () => ({
      loginState,
      customer,
      favorites,
      isFavorite,
      toggleFavorite,
      removeFavorite,
      signedIn,
      logout,
      popup,
      openPopup,
      closePopup,
    }),
    [loginState, customer, favorites, isFavorite, toggleFavorite, removeFavorite, signedIn, logout, popup, openPopup, closePopup],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
