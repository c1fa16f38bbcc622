import { Link } from "react-router";

/** Placeholder for a screen that is not built yet. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-gray-600">This screen is coming soon.</p>
      <Link to="/" className="mt-4 inline-block text-blue-700 underline hover:text-blue-900">
        Back to the locator
      </Link>
    </main>
  );
}
