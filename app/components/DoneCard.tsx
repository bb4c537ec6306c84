/**
 * The end of a link flow (set password, reset password): the screen's title, the product's success
 * message, and the way on to Sign In (`signIn`: its words in the page's language).
 */
import { Link } from "react-router";
import { FormMessage } from "./Field";

export function DoneCard({ title, message, signIn }: { title: string; message: string; signIn: string }) {
  return (
    <section className="card narrow">
      <h1>{title}</h1>
      <FormMessage tone="success" errors={[message]} />
      <Link className="button" to="/login">
        {signIn}
      </Link>
    </section>
  );
}
