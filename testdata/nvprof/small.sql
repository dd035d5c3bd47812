-- A hand-made nvprof database (the columns profana reads, as nvprof 10 writes them).
-- Two nested emit_nvtx markers on process 100, thread 7; a marker that never ends; a kernel
-- launched by cudaLaunchKernel inside the inner marker; a kernel correlated with cudaMemcpy (not a
-- launch callback); a kernel whose correlation id matches no runtime call.
CREATE TABLE Version(version INT NOT NULL);
INSERT INTO Version VALUES (12);
CREATE TABLE StringTable(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT NOT NULL UNIQUE);
INSERT INTO StringTable VALUES (0, '-- null --'), (1, 'aten::linear, seq = 1'), (2, 'aten::addmm, seq = 2'),
  (3, '_Z9gemm_tileILi64EEvPKfS1_Pfi'), (4, 'copy_kernel'), (5, 'lost marker'), (6, 'Test GPU');
CREATE TABLE CUPTI_ACTIVITY_KIND_DEVICE(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, id INT NOT NULL, name INT NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE VALUES (1, 0, 6);
CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, flags INT NOT NULL, timestamp INT NOT NULL, id INT NOT NULL, objectKind INT NOT NULL, objectId BLOB NOT NULL, name INT NOT NULL, domain INT NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES
  (1, 2, 1000000, 1, 2, X'6400000007000000', 1, 0),
  (2, 2, 2000000, 2, 2, X'6400000007000000', 2, 0),
  (3, 4, 8000000, 2, 2, X'6400000007000000', 0, 0),
  (4, 4, 9000000, 1, 2, X'6400000007000000', 0, 0),
  (5, 2, 9500000, 3, 2, X'6400000007000000', 5, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, cbid INT NOT NULL, start INT NOT NULL, end INT NOT NULL, processId INT NOT NULL, threadId INT NOT NULL, correlationId INT NOT NULL, returnValue INT NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1, 211, 3000000, 3500000, 100, 7, 10, 0),
  (2, 31, 4000000, 4500000, 100, 7, 11, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL(_id_ INTEGER PRIMARY KEY AUTOINCREMENT, start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL, contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT NOT NULL, name INT NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES
  (1, 5000000, 6000000, 0, 1, 7, 10, 3),
  (2, 6500000, 6750000, 0, 1, 7, 11, 4),
  (3, 7000000, 7500000, 0, 1, 7, 99, 4);
