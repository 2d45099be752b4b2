"""The game in a web browser: build the static site, serve it, screenshot and measure it in Chromium."""
