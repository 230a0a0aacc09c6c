// Lint rules for the browser client: ESLint's recommended rules, for ES modules run in a browser,
// and the house's form (indent, quotes, spacing) from @stylistic so that `.ci/run` checks the form
// of the scripts as `ruff format --check` checks the Python.
import js from "@eslint/js";
import globals from "globals";
import stylistic from "@stylistic/eslint-plugin";

export default [
  js.configs.recommended,
  stylistic.configs.customize({
    indent: 2,
    quotes: "double",
    semi: true,
    braceStyle: "1tbs",
    arrowParens: true,
    commaDangle: "always-multiline",
  }),
  {
    files: ["src/tendays/web/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      // The DOM builders take short argument lists on one line and long ones wrapped, and a
      // ternary chain reads as a table: the form of those is left to the writer.
      "@stylistic/list-style": "off",
      "@stylistic/multiline-ternary": "off",
      "@stylistic/indent": ["error", 2, { SwitchCase: 1, ignoredNodes: ["ConditionalExpression"] }],
      // Attribute names such as "aria-label" need quotes; plain ones go without.
      "@stylistic/quote-props": ["error", "as-needed"],
      // A short guard and its action may share a line (`if (!x) return; y();`).
      "@stylistic/max-statements-per-line": ["error", { max: 3 }],
      "@stylistic/brace-style": ["error", "1tbs", { allowSingleLine: true }],
      "@stylistic/no-multi-spaces": ["error", { ignoreEOLComments: true }],
      "@stylistic/max-len": ["error", { code: 140, ignoreUrls: true }],
    },
  },
];
