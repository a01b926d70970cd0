# Never connects: sleeps past the join time.
import time
time.sleep(3600)
