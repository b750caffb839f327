"""Club evenings and seasons: real tables drawn, scored and ranked."""
