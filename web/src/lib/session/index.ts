export { SessionProvider } from "./SessionProvider";
export { signIn, type SignInPayload } from "./api/sign-in";
export { useSession, usePopup, type Session, type LoginState, type PopupState } from "./context";
export type { Customer, PopupView } from "./types";
export { toggledFavorites, ADD_FAVORITE_ERROR, REMOVE_FAVORITE_ERROR } from "./favorites";
