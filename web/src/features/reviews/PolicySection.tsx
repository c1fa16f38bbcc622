import { useQuery } from "@tanstack/react-query";
import { Loaded } from "../../components/Loaded";
import { reviewPolicyOptions } from "./api/reviews";

const monthFormat = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "long", timeZone: "UTC" });

function monthName(month: string): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? month : monthFormat.format(date);
}

/**
 * The public policy (on /reviews without a store): how reviews are kept honest, the published
 * removal reasons and the reviews removed per month and reason (GET /api/reviews/policy).
 */
export function PolicySection() {
  const policy = useQuery(reviewPolicyOptions());
  return (
    <section aria-labelledby="review-policy" className="mt-8">
      <h2 id="review-policy" className="text-xl font-semibold text-gray-900">
        How reviews are kept honest
      </h2>
      <ul className="mt-4 list-disc space-y-1 pl-5 text-gray-800">
        <li>Only members with a proven email address write reviews, one per store; they may edit (the edit is dated) or delete it.</li>
        <li>Owners and co-owners cannot review their own store. Owners may reply in public, but never hide, edit, reorder or pay to remove a review.</li>
        <li>Reviews with phone numbers, email addresses or health or quit-smoking claims, and bursts of reviews from new accounts, wait for a moderator.</li>
        <li>Anyone may flag a review. Moderators remove reviews only for the reasons below; an honest negative opinion always stays.</li>
        <li>We follow the FTC rule on consumer reviews and testimonials (16 CFR Part 465).</li>
      </ul>
      <Loaded query={policy} loading="Loading the policy…" failed="The policy could not be loaded">
        {(data) => (
          <>
            <section aria-labelledby="removal-reasons" className="mt-8">
              <h3 id="removal-reasons" className="text-lg font-semibold text-gray-900">
                Reasons a review is removed
              </h3>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-gray-800">
                {data.removal_reasons.map((r) => (
                  <li key={r.code}>{r.label}</li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="removals" className="mt-8">
              <h3 id="removals" className="text-lg font-semibold text-gray-900">
                Reviews removed, by month
              </h3>
              {data.removals.length === 0 ? (
                <p className="mt-2 text-gray-700">No review was removed in the last 12 months.</p>
              ) : (
                <table className="mt-2 w-full text-left text-sm">
                  <thead>
                    <tr className="border-b border-gray-300">
                      <th scope="col" className="py-1 pr-3">Month</th>
                      <th scope="col" className="py-1 pr-3">Reason</th>
                      <th scope="col" className="py-1">Reviews removed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.removals.map((r) => (
                      <tr key={`${r.month} ${r.reason}`} className="border-b border-gray-100">
                        <td className="py-1 pr-3">{monthName(r.month)}</td>
                        <td className="py-1 pr-3">{data.removal_reasons.find((x) => x.code === r.reason)?.label ?? r.reason}</td>
                        <td className="py-1">{r.count}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </Loaded>
    </section>
  );
}
