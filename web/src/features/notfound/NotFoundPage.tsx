import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { BrandHeader } from "../../components/Brand";
import { useTitle } from "../../lib/documentMeta";

/**
 * Shown for any path without a screen; logs the requested path as an error once per path. It
 * carries the app's header (the brand, a link to the locator) as every screen does, so a mistyped
 * address still looks like the product (issue 39, m17).
 */
export function NotFoundPage() {
  useTitle("Page not found");
  const { pathname } = useLocation();
  const logged = useRef<string | null>(null);

  useEffect(() => {
    // The ref keeps StrictMode's second effect run in development from logging twice.
    if (logged.current === pathname) return;
    logged.current = pathname;
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);

  return (
    <div className="flex min-h-dvh flex-col bg-gray-100">
      <BrandHeader />
      <main className="flex flex-1 items-center justify-center">
        <div className="text-center">
          <h1 className="mb-4 text-6xl font-bold">404</h1>
          <p className="mb-4 text-xl text-gray-600">Oops! Page not found</p>
          <Link to="/" className="text-blue-600 underline hover:text-blue-800">
            Return to Home
          </Link>
        </div>
      </main>
    </div>
  );
}
