import { lazy, Suspense } from "react";
import { usePopup } from "../lib/session";

const AuthPopup = lazy(() => import("./AuthPopup"));

/** Mounts the auth popup (loaded on first open) while the session says it is open. */
export function PopupHost() {
  const { open } = usePopup();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <AuthPopup />
    </Suspense>
  );
}
