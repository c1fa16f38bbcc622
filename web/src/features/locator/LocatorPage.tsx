import { useQuery } from "@tanstack/react-query";
import { DEFAULT_CENTER, PAGE_SIZE } from "../../lib/constants";
import { listPhysicalStoresOptions } from "./api/list-physical-stores";

/** Placeholder locator: lists the stores near the default centre to prove the API wiring. */
export function LocatorPage() {
  const stores = useQuery(listPhysicalStoresOptions(DEFAULT_CENTER));

  return (
    <main className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold">Store Locator</h1>
      <p className="mt-1 text-gray-600">The map and filters are coming soon. Stores near New York:</p>
      {stores.isPending ? (
        <p role="status" className="mt-4 text-gray-500">
          Loading stores…
        </p>
      ) : stores.isError ? (
        <p role="alert" className="mt-4 text-red-700">
          Could not load stores: {stores.error.message}
        </p>
      ) : stores.data.physical_stores.length === 0 ? (
        <p className="mt-4">No Results Found</p>
      ) : (
        <ul aria-label="Stores" className="mt-4 divide-y divide-gray-200 rounded border border-gray-200">
          {stores.data.physical_stores.slice(0, PAGE_SIZE).map((store) => (
            <li key={store.id} className="px-4 py-2">
              {store.name}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
