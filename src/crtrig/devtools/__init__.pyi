# The subpackage itself exports nothing: its modules have their own stubs.
