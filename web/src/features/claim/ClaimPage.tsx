import { X } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { toast } from "../../lib/toast";
import { createUser, REFERRED_BY } from "./api/create-user";
import { submitClaim, type ClaimPayload } from "./api/submit-claim";
import {
  DASHBOARD_LINK,
  EXISTING_ACCOUNT_LINK,
  existingAccountText,
  FAILURE_TEXT,
  FAILURE_TITLE,
  SUBMITTING,
  SUCCESS_TEXT,
  SUCCESS_TITLE,
} from "./messages";
import { EMPTY_VALUES, FORM_STEPS, stepIsValid, type ClaimValues, type FormStep } from "./schema";
import { BusinessStep, EmailStep, NameStep, PasswordStep, PhoneStep } from "./Steps";
import { PinSection, type PinValues } from "./PinSection";
import { clearDraft, loadDraft, saveDraft } from "./storage";
import { useTitle } from "../../lib/documentMeta";
import { parseCoordinates } from "../../components/location/coordinates";

type Step = FormStep | 6;

/** Each step's name in the document title ("Claim your store, step 2 of 5: Email"). */
const STEP_NAMES: Record<FormStep, string> = { 1: "Business name", 2: "Email", 3: "Phone", 4: "Business information", 5: "Password" };

const TITLES: Record<FormStep, string> = {
  1: "What is the name of your business?",
  2: "What is your business email?",
  3: "What is your business phone number?",
  4: "Business information",
  5: "Create a password for your business account",
};

/**
 * /claim: the five-step claim wizard and its thank-you step. Step 5 sends the claim, then creates
 * the business account. What was typed survives a reload (sessionStorage), the password never.
 * A 409 from the account call means the email already has a (proven) business account: the
 * owner's second store, a normal case. The claim is saved, so the wizard thanks and points to
 * the dashboard's sign-in instead of failing.
 */
export function ClaimPage() {
  const [draft] = useState(loadDraft);
  const [step, setStep] = useState<Step>(draft.step);
  useTitle(step === 6 ? "Claim sent" : `Claim your store, step ${step} of ${FORM_STEPS}: ${STEP_NAMES[step]}`);
  const [submitting, setSubmitting] = useState(false);
  /** The email already had a business account (create-user answered 409). */
  const [existingAccount, setExistingAccount] = useState(false);
  const { register, control, getValues, setValue } = useForm<ClaimValues>({ defaultValues: draft.values });
  const values: ClaimValues = { ...EMPTY_VALUES, ...useWatch({ control }) };
  const snapshot = JSON.stringify({ ...values, password: "" });
  /** The claim already accepted for these exact values, so a retry only re-creates the account. */
  const claimed = useRef<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (step !== 6) saveDraft(step, JSON.parse(snapshot) as ClaimValues);
  }, [step, snapshot]);

  const valid = step !== 6 && stepIsValid(step, values);

  const goTo = (next: Step) => {
    setStep(next);
  };

  const submit = async () => {
    const v = trimmed(getValues());
    setSubmitting(true);
    try {
      const key = JSON.stringify({ ...v, password: "" });
      if (claimed.current !== key) {
        await submitClaim(claimPayload(v));
        claimed.current = key;
      }
      setExistingAccount(false);
      await createUser({
        store_name: v.business_name,
        email: v.email,
        password: v.password,
        phone_number: v.phone,
        referred_by: REFERRED_BY,
      }).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 409)) throw error;
        setExistingAccount(true);
      });
    } catch (error) {
      setSubmitting(false);
      const detail = error instanceof Error ? error.message : String(error);
      toast.error(FAILURE_TITLE, `${FAILURE_TEXT} ${detail}`);
      return;
    }
    setSubmitting(false);
    clearDraft();
    goTo(6);
    toast.success(SUCCESS_TITLE, SUCCESS_TEXT);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step === 6 || !valid || submitting) return;
    if (step === 5) void submit();
    else goTo((step + 1) as Step);
  };

  useEffect(() => {
    if (step === 6) heading.current?.focus();
  }, [step]);

  return (
    <div className="min-h-screen bg-gray-50">
      <header className="mx-auto flex max-w-2xl items-center justify-between gap-4 p-4">
        <Link
          to="/"
          aria-label="Close the claim form and return to the locator"
          className="rounded-md p-2 text-gray-700 hover:bg-gray-200 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          <X aria-hidden="true" className="size-6" />
        </Link>
        <ProgressDots step={step} />
        <span className="w-10" aria-hidden="true" />
      </header>
      <main className="mx-auto max-w-2xl px-4 pb-12">
        {step === 6 ? (
          <section className="rounded-lg bg-white p-6 text-center shadow-sm">
            <h1 ref={heading} tabIndex={-1} className="text-3xl font-semibold text-gray-900 outline-none">
              Thank You!
            </h1>
            <p className="mt-4 text-gray-800">Your claim has been submitted and will be reviewed by our team.</p>
            {existingAccount ? (
              <p className="mt-2 break-words text-gray-800">{existingAccountText(values.email)}</p>
            ) : (
              <>
                <p className="mt-2 text-gray-800">
                  Once it is approved, you can reach the store dashboard with <strong className="wrap-anywhere">{values.email}</strong>{" "}
                  and the password you provided.
                </p>
                <p className="mt-2 text-gray-800">
                  We sent a link to this address: open it and enter your password to confirm your email. Your store is ready for you
                  once both are done.
                </p>
              </>
            )}
            <div className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2">
              <Link to="/business" className="font-medium text-emerald-800 underline">
                {existingAccount ? EXISTING_ACCOUNT_LINK : DASHBOARD_LINK}
              </Link>
              <Link to="/" className="font-medium text-emerald-800 underline">
                Back to the locator
              </Link>
            </div>
          </section>
        ) : (
          <form key={step} noValidate onSubmit={onSubmit} className="rounded-lg bg-white p-6 shadow-sm" aria-labelledby="claim-title">
            <p className="text-sm text-gray-600">Claim your store</p>
            <h1 id="claim-title" className="mt-1 text-2xl font-semibold text-gray-900">
              {TITLES[step]}
            </h1>
            <div className="mt-6">
              {step === 1 && <NameStep register={register} />}
              {step === 2 && <EmailStep register={register} />}
              {step === 3 && <PhoneStep register={register} />}
              {step === 4 && (
                <BusinessStep
                  register={register}
                  pin={
                    <PinSection
                      address={{
                        country: values.country,
                        state: values.state,
                        city: values.city,
                        postal_code: values.postal_code,
                        address1: values.address1,
                      }}
                      pin={{ latitude: values.pin_latitude, longitude: values.pin_longitude, source: pinSource(values.pin_source) }}
                      onPin={(p) => {
                        setValue("pin_latitude", p.latitude);
                        setValue("pin_longitude", p.longitude);
                        setValue("pin_source", p.source);
                      }}
                    />
                  }
                />
              )}
              {step === 5 && <PasswordStep register={register} />}
            </div>
            <div className="mt-6 flex items-center justify-between gap-3">
              {step > 1 ? (
                <Button variant="outline" onClick={() => goTo((step - 1) as Step)} disabled={submitting}>
                  Back
                </Button>
              ) : (
                <span />
              )}
              <Button type="submit" disabled={!valid || submitting}>
                {step === 4 ? "Add business" : step === 5 ? (submitting ? SUBMITTING : "Submit") : "Continue"}
              </Button>
            </div>
          </form>
        )}
      </main>
    </div>
  );
}

/** Five dots, one per form step; the current and earlier ones are filled. */
function ProgressDots({ step }: { step: Step }) {
  const current = Math.min(step, FORM_STEPS);
  return (
    <div role="img" aria-label={step === 6 ? "All steps done" : `Step ${current} of ${FORM_STEPS}`} className="flex gap-2">
      {Array.from({ length: FORM_STEPS }, (_, i) => (
        <span
          key={i}
          className={`size-2.5 rounded-full ${i < current ? "bg-emerald-700" : "bg-gray-300"} ${i === current - 1 && step !== 6 ? "ring-2 ring-emerald-300" : ""}`}
        />
      ))}
    </div>
  );
}

function trimmed(values: ClaimValues): ClaimValues {
  const out = { ...values };
  for (const key of Object.keys(out) as (keyof ClaimValues)[]) {
    if (key !== "password") out[key] = out[key].trim();
  }
  return out;
}

function pinSource(v: string): PinValues["source"] {
  return v === "map" || v === "device" ? v : "";
}

export function claimPayload(v: ClaimValues): ClaimPayload {
  const { password: _password, adult_only, pin_latitude, pin_longitude, pin_source, ...payload } = v;
  void _password;
  const pin = parseCoordinates(pin_latitude, pin_longitude);
  return {
    ...payload,
    adult_only: adult_only === "yes",
    ...(pin ? { pin_latitude: pin.latitude, pin_longitude: pin.longitude, pin_source: pin_source === "device" ? "device" : "map" } : {}),
  };
}
