"""Hand-history formats: PHH (`phh`: read, replay and write) and PokerStars text (`pokerstars`).
The ACPC protocol, which plays bots rather than records hands, is `holdem.acpc`."""
