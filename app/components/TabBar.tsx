/**
 * docs/product/screens.md §2 bottom navigation on main screens: only the tabs of enabled screens (docs/product/data.md §6).
 * A tab is current on its own path and on the sub-screens that belong to it (app/screens.ts: test
 * detail and the viewer under My Tests, a person and Add under People, Personal Info under Settings):
 * `aria-current="page"` on its own path, `"true"` on a sub-screen, and "(current)" for text browsers.
 * `text`: the bar's name and that mark in the page's language (the main layout's loader data).
 */
import { Link, useLocation } from "react-router";
import { screenOf, type Tab } from "~/screens";
import { TextOnly } from "./TextOnly";

export function TabBar({ tabs, text }: { tabs: Pick<Tab, "to" | "label" | "screen">[]; text: { navigation: string; current: string } }) {
  const { pathname } = useLocation();
  if (tabs.length === 0) return null;
  const currentScreen = screenOf(pathname);
  return (
    <nav className="tab-bar" aria-label={text.navigation}>
      <ul>
        {tabs.map((tab) => {
          const current = tab.screen === currentScreen;
          return (
            <li key={tab.screen}>
              <Link
                to={tab.to}
                className={current ? "tab active" : "tab"}
                aria-current={current ? (pathname === tab.to ? "page" : "true") : undefined}
              >
                <TabIcon screen={tab.screen} />
                <span className="tab-label">{tab.label}</span>
                {current ? <TextOnly>{text.current}</TextOnly> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function TabIcon({ screen }: { screen: string }) {
  const paths: Record<string, string> = {
    SafeWindow: "M12 2l8 3v6c0 5-3.5 9.5-8 11-4.5-1.5-8-6-8-11V5l8-3z",
    MyTests: "M6 2h9l5 5v15H6zM14 2v6h6",
    MyFun: "M12 2l3 6.5 7 1-5 5 1.2 7L12 18l-6.2 3.5L7 14.5l-5-5 7-1z",
    Locations: "M12 22s7-7.5 7-13a7 7 0 10-14 0c0 5.5 7 13 7 13zm0-10a3 3 0 110-6 3 3 0 010 6z",
    Friends: "M9 11a4 4 0 110-8 4 4 0 010 8zm-7 10c0-4 3-6 7-6s7 2 7 6M17 11a3 3 0 100-6M22 21c0-3-2-5-5-5",
    Settings: "M12 15a3 3 0 110-6 3 3 0 010 6zm8-3l2-1-2-4-2 1-2-1V5h-4v2l-2 1-2-1-2 4 2 1v2l-2 1 2 4 2-1 2 1v2h4v-2l2-1 2 1 2-4-2-1z",
  };
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="tab-icon">
      <path d={paths[screen] ?? ""} />
    </svg>
  );
}
