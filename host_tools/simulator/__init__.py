"""The host simulator: the firmware's App in a terminal or window, head-less scripts, screenshots, replays."""
