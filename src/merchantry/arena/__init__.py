"""The arena: tournaments that rate bots (`merchantry tournament`) and their reports. It knows no game by
name: every registered game and bot takes part by being registered."""
