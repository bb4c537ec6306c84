// A sign-in form as a React Router tutorial would write it: a loader, an action that checks the
// fields, a <Form> that works without JavaScript. The yardstick of bench/pages (bench/bare/README.md).
import { data, Form, useActionData, useLoaderData } from "react-router";

export const meta = () => [{ title: "Sign In" }];

export function loader() {
  return { heading: "Sign In" };
}

export async function action({ request }: { request: Request }) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "").trim();
  if (!email) return data({ error: "Please enter your email" }, { status: 400 });
  return data({ error: "Incorrect email or password" }, { status: 401 });
}

export default function Login() {
  const { heading } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return (
    <main>
      <h1>{heading}</h1>
      <Form method="post">
        <label>
          Email <input type="email" name="email" autoComplete="email" required />
        </label>
        <label>
          Password <input type="password" name="password" autoComplete="current-password" required />
        </label>
        {answer?.error ? <p role="alert">{answer.error}</p> : null}
        <button type="submit">Sign In</button>
      </Form>
    </main>
  );
}
