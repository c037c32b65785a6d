print("carnet-bench: not yet")
