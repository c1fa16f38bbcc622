import { zodResolver } from "@hookform/resolvers/zod";
import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { failureText } from "../api/client";
import { useForm } from "react-hook-form";
import { email, required, z } from "../lib/validation";
import { Button } from "./ui/button";
import { Field, FormError } from "./ui/field";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & Record<`data-${string}`, unknown>;

/**
 * What differs between the sign-in forms of the three areas (docs/accounts.md, "The identity
 * core"): members sign in in the popup, business accounts and moderators on their pages. Every
 * other part of the form (an email and a password, both required, the failure under the form, the
 * submit button held while the call runs) is the same.
 */
export interface SignInArea<A> {
  /** The form's accessible name (the pages name theirs). */
  label?: string;
  /** Shown under an empty email and an empty password. */
  emailRequired: string;
  passwordRequired: string;
  /** Signs in with the trimmed email; throws when refused. */
  signIn: (body: { email: string; password: string }) => Promise<A>;
  /** The text under the form after a refusal (of any kind: status or network). */
  failure: (error: unknown) => string;
  /** The submit button's text, and its text while the call runs. */
  submit: string;
  busy?: string;
  /** The fields' attributes: the popup's email is a text field with an email keyboard, the pages' an email field. */
  emailField: FieldProps;
  passwordField?: FieldProps;
  className?: string;
}

/** The one sign-in form, parametrised by area. */
export function SignInForm<A>({
  area,
  defaultEmail = "",
  onSignedIn,
}: {
  area: SignInArea<A>;
  defaultEmail?: string;
  onSignedIn?: (account: A) => void;
}) {
  const schema = z.object({ email: email(area.emailRequired), password: required(area.passwordRequired) });
  type Values = z.infer<typeof schema>;
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { email: defaultEmail, password: "" },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = async (values: Values) => {
    setFailure(null);
    let account: A;
    try {
      account = await area.signIn({ email: values.email.trim(), password: values.password });
    } catch (error) {
      setFailure(area.failure(error));
      return;
    }
    onSignedIn?.(account);
  };

  return (
    <form noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)} className={area.className ?? "flex flex-col gap-3"} aria-label={area.label}>
      <Field label="Email" {...area.emailField} error={errors.email?.message} {...register("email")} />
      <Field label="Password" type="password" autoComplete="current-password" {...area.passwordField} error={errors.password?.message} {...register("password")} />
      {failure && <FormError>{failure}</FormError>}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting && area.busy ? area.busy : area.submit}
      </Button>
    </form>
  );
}

/**
 * The sign-in of a page of its own (the store dashboard, moderation): heading, intro and what
 * follows (the form, "Forgot password?").
 */
export function SignInPage({ heading, intro, children }: { heading: string; intro: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex w-full max-w-sm flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">{heading}</h1>
      <p className="text-gray-700">{intro}</p>
      {children}
    </main>
  );
}

/**
 * The area of a sign-in page: its texts (the dashboard's and the moderators' are the same words,
 * each feature keeping its own copy) and its call; a refusal reads "<failed>: <the server's reason>".
 */
export function pageArea<A>(
  label: string,
  signIn: SignInArea<A>["signIn"],
  texts: { emailRequired: string; passwordRequired: string; failed: string },
): SignInArea<A> {
  return {
    label,
    emailRequired: texts.emailRequired,
    passwordRequired: texts.passwordRequired,
    signIn,
    failure: (error) => `${texts.failed}: ${failureText(error)}`,
    submit: "Sign in",
    busy: "Signing in…",
    emailField: { type: "email", autoComplete: "username", autoFocus: true },
  };
}
