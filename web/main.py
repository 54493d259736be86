"""Kosynka's PyScript entry point: builds the solo table (see ``web.ui``)."""

from web.ui import App

app = App()
await app.start()  # noqa: F704 - PyScript runs this script with top-level await
