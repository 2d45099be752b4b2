"""Two handhelds, one game: the link protocol (frames, the reliable channel, the match session)."""
