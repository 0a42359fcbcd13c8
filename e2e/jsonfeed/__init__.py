"""A local JSON Feed 1.1 server for the tests and the bench (feed_server.py); its own checks are test_feed_server.py."""
