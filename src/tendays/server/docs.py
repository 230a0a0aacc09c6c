"""``/docs``: the interactive API page, served entirely by this server (nothing loaded from other sites).

Swagger UI's script and style come from the ``swagger-ui-bundle`` package (part of the server extra);
without it, ``/docs`` is a plain page that points to ``/openapi.json``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse

__all__ = ["add_docs"]

_ASSETS = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css", "favicon-32x32.png": "image/png"}


def _assets() -> Path | None:
    try:
        import swagger_ui_bundle
    except ImportError:
        return None
    folder = Path(swagger_ui_bundle.swagger_ui_path)
    return folder if all((folder / name).is_file() for name in _ASSETS) else None


def add_docs(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets from this server. Create the app with ``docs_url=None``."""
    folder = _assets()

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        if folder is None:
            return HTMLResponse(f"<!doctype html><title>{app.title} API</title><h1>{app.title} API</h1><p>The "
                                "interactive page needs the swagger-ui-bundle package. The API is described in "
                                "<a href=\"/openapi.json\">/openapi.json</a> and docs/protocol.md.</p>")
        return get_swagger_ui_html(openapi_url="/openapi.json", title=f"{app.title}: API",
                                   swagger_js_url="/docs/assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs/assets/swagger-ui.css",
                                   swagger_favicon_url="/docs/assets/favicon-32x32.png")

    @app.get("/docs/assets/{name}", include_in_schema=False)
    async def docs_asset(name: str) -> FileResponse:
        if folder is None or name not in _ASSETS:
            raise HTTPException(404, f"no such file {name!r}")
        return FileResponse(folder / name, media_type=_ASSETS[name])
