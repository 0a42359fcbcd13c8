// The server lives here.
