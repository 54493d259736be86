# What tools/relay.py uses of nostr-relay (pinned in requirements-dev.txt), which ships no
# types: its modules below (a stub module has its __file__ already).
