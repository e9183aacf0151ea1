"""The web platform: lobby, tables, live play in the browser (see app.py)."""
