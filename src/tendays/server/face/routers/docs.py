"""``/docs``: the interactive API page, served entirely by this server (nothing loaded from other
sites).

Swagger UI 5 (which reads the OpenAPI 3.1 definition FastAPI writes) comes from the
``swagger-ui-bundle-v2`` package (part of the server extra); without it, ``/docs`` is a plain page
that points to ``/openapi.json``.

The page holds no inline script (its start is ``/docs/assets/start.js``), so the server's script
policy (:mod:`~tendays.server.face.door.headers`) stands; it only allows Swagger UI's inline styles
and its ``data:`` images, which the bundle needs to draw. ``/static/css/api-docs.css`` darkens the
colours that read below WCAG's contrast, so the page passes an axe-core audit.
"""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..door.headers import PAGE_POLICY

__all__ = ["docs_router"]

_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "favicon-32x32.png": "image/png",
}

# The page's own script: Swagger UI on /openapi.json, without the online validator (another site).
# Served as a file: the page's policy allows no inline script. Deep links stay off: they put a link
# inside each operation's button, which screen readers cannot reach (axe: nested-interactive). What
# Swagger UI draws without a name or a focus is mended as it appears: a parameter's select is named
# after its parameter, and a scrolling example can be reached (and scrolled) by keyboard.
_START = """SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  layout: 'BaseLayout',
  deepLinking: false,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
});
function mend() {
  for (const select of document.querySelectorAll('tr[data-param-name] select:not([aria-label])')) {
    select.setAttribute('aria-label', select.closest('tr').dataset.paramName);
  }
  for (const example of document.querySelectorAll('.highlight-code pre:not([tabindex])')) {
    example.setAttribute('tabindex', '0');
  }
}
new MutationObserver(mend).observe(document.body, { childList: true, subtree: true });
"""
# The server's policy, with the inline styles and data: images Swagger UI draws with.
DOCS_POLICY = PAGE_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


def _assets() -> Path | None:
    try:
        import swagger_ui_bundle
    except ImportError:
        return None
    folder = Path(swagger_ui_bundle.swagger_ui_path)
    return folder if all((folder / name).is_file() for name in _ASSETS) else None


def _page(title: str, body: str, head: str = "") -> str:
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f"{head}</head><body>{body}</body></html>"
    )


def docs_router(app_title: str) -> APIRouter:
    """``/docs`` and its assets, served by this server. Create the app with ``docs_url=None``."""
    router = APIRouter(include_in_schema=False)
    folder = _assets()
    title = f"{app_title}: API"

    @router.get("/docs")
    async def docs() -> HTMLResponse:
        if folder is None:
            return HTMLResponse(
                _page(
                    title,
                    f"<h1>{html.escape(title)}</h1><p>The interactive page needs the "
                    "swagger-ui-bundle-v2 package. The API is described in "
                    '<a href="/openapi.json">/openapi.json</a> and docs/protocol.md.</p>',
                )
            )
        head = (
            '<link rel="icon" href="/docs/assets/favicon-32x32.png">'
            '<link rel="stylesheet" href="/docs/assets/swagger-ui.css">'
            '<link rel="stylesheet" href="/static/css/api-docs.css">'
        )
        body = (
            '<div id="swagger-ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>'
            '<script src="/docs/assets/start.js"></script>'
        )
        return HTMLResponse(
            _page(title, body, head), headers={"Content-Security-Policy": DOCS_POLICY}
        )

    @router.get("/docs/assets/start.js")
    async def docs_start() -> Response:
        return Response(_START, media_type="text/javascript")

    @router.get("/docs/assets/{name}")
    async def docs_asset(name: str) -> FileResponse:
        if folder is None or name not in _ASSETS:
            raise HTTPException(404, f"no such file {name!r}")
        return FileResponse(folder / name, media_type=_ASSETS[name])

    return router
