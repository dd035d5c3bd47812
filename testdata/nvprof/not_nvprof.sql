-- A SQLite database that is not an nvprof profile.
CREATE TABLE experiments(name TEXT, loss REAL);
INSERT INTO experiments VALUES ('run1', 0.25);
