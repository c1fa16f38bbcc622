import { lazy, Suspense, type ComponentType } from "react";
import { Route, Routes, useLocation } from "react-router";
import { LocatorPage } from "../features/locator/LocatorPage";
import { NotFoundPage } from "../features/notfound/NotFoundPage";
import { firstFrame } from "../lib/firstFrame";

// Screens other than the locator and not-found are split into their own chunks to keep the
// initial JavaScript small (budget: 120 KB gzip before the map chunk).
function lazyNamed<M extends Record<string, unknown>, K extends keyof M>(load: () => Promise<M>, name: K) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const ClaimPage = lazyNamed(() => import("../features/claim/ClaimPage"), "ClaimPage");
const ProfilePage = lazyNamed(() => import("../features/profile/ProfilePage"), "ProfilePage");
const ResetPasswordPage = lazyNamed(() => import("../features/auth/ResetPasswordPage"), "ResetPasswordPage");
const ReviewsPage = lazyNamed(() => import("../features/reviews/ReviewsPage"), "ReviewsPage");
const AdminPage = lazyNamed(() => import("../features/admin/AdminPage"), "AdminPage");
const BusinessPage = lazyNamed(() => import("../features/business/BusinessPage"), "BusinessPage");
const BusinessResetPasswordPage = lazyNamed(() => import("../features/business/BusinessPage"), "BusinessResetPasswordPage");
const BusinessVerifyPage = lazyNamed(() => import("../features/business/BusinessPage"), "BusinessVerifyPage");
const BusinessConsentPage = lazyNamed(() => import("../features/business/BusinessPage"), "BusinessConsentPage");
const VerifyEmailPage = lazyNamed(() => import("../features/auth/VerifyEmailPage"), "VerifyEmailPage");

/** The route table. Keep in step with the Go server's list of app routes (`appRoutes` in internal/httpapi). */
export function AppRoutes() {
  return (
    <Suspense fallback={<RouteFallback />}>
      <Routes>
        <Route path="/" element={<LocatorPage />} />
        {/* The widget (docs/embed.md): the locator in embed mode, served by internal/httpapi/embed.go. */}
        <Route path="/embed" element={<LocatorPage />} />
        <Route path="/claim" element={<ClaimPage />} />
        <Route path="/profile" element={<ProfilePage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/reviews" element={<ReviewsPage />} />
        <Route path="/admin" element={<AdminPage />} />
        <Route path="/business" element={<BusinessPage />} />
        <Route path="/business/reset-password" element={<BusinessResetPasswordPage />} />
        <Route path="/business/verify" element={<BusinessVerifyPage />} />
        <Route path="/business/consent" element={<BusinessConsentPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

/** While a lazy screen loads: the server's first frame of this path, else "Loading…". */
function RouteFallback() {
  const { pathname, search } = useLocation();
  const html = firstFrame(pathname, search);
  if (html === null) return <p className="p-6 text-gray-500">Loading…</p>;
  // The server's own markup (internal/httpapi/frames), already on screen before React ran.
  return <div className="contents" dangerouslySetInnerHTML={{ __html: html }} />;
}
