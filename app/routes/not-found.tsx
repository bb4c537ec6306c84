// app/routes/not-found.tsx: docs/product/screens.md §2 catch-all: 'Sorry, that page doesn't exist.' with status 404
import { data, Link } from "react-router";
import * as messages from "~/messages";

export function loader() {
  return data(null, { status: 404 });
}

export function action() {
  return data(null, { status: 404 });
}

export const meta = () => [{ title: "Not found · SafeWindow" }];

export default function NotFound() {
  return (
    <section className="card narrow">
      <h1>{messages.notFound}</h1>
      <p>
        <Link to="/">Go to the start page</Link>
      </p>
    </section>
  );
}
