// The wire codec lives here.
