import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { tokenFromSearch } from "../lib/linkToken";
import { FormError } from "./ui/field";

/** The token of the mailed link that opened this page (everything after the first "="). */
export function useLinkToken(): string {
  return tokenFromSearch(useLocation().search);
}

/**
 * The page a mailed link opens (a password reset, an email confirmation), for members and
 * business accounts: the heading, then the `noToken` text when the link lost its token, the
 * `done` text once the form succeeded, or else the form; the way back below.
 */
export function LinkPage({
  heading,
  token,
  noToken,
  done,
  footer,
  children,
}: {
  heading: string;
  token: string;
  noToken: string;
  done: string | null;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-4 p-6">
      <h1 className="text-2xl font-semibold text-gray-900">{heading}</h1>
      {token === "" ? (
        <FormError>{noToken}</FormError>
      ) : done !== null ? (
        <p role="status" className="text-emerald-900">
          {done}
        </p>
      ) : (
        children
      )}
      {footer}
    </main>
  );
}
