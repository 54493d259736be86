"""Kosynka's PyScript entry point: builds the solo table (see ``web.ui``)."""

from web.ui import App

app = App()
app.start()
