export { SessionProvider } from "./SessionProvider";
export { usePopup, type Popup, type PopupState } from "./context";
export { useCustomer, useSignIn, useLogout, type LoginState } from "./customer";
export { useFavorites, withFavorite, ADD_FAVORITE_ERROR, REMOVE_FAVORITE_ERROR } from "./favorites";
export { meOptions } from "./api/get-me";
export { signIn, type SignInPayload } from "./api/sign-in";
export type { Customer, PopupView } from "./types";
