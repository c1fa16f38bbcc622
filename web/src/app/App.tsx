import { BrowserRouter } from "react-router";
import { SessionProvider } from "../lib/session";
import { Toaster } from "../components/Toaster";
import { PopupHost } from "./PopupHost";
import { AppProviders } from "./providers";
import { AppRoutes } from "./routes";

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
          <PopupHost />
          <Toaster />
        </SessionProvider>
      </BrowserRouter>
    </AppProviders>
  );
}
