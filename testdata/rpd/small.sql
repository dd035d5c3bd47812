-- A hand-made rocmProfileData (RPD) database, schema version 2: the tables as rpdTracer and RPD's
-- autograd tool create them (CREATE statements copied from real RPD files). One process (pid 50,
-- thread 50) on gpuId 2, times in ns:
--   UserMarker "decode step"           0 .. 20000  a user annotation (not PyTorch's)
--   UserMarker "aten::mm"           1000 ..  9000  an op: RPD's autograd tool listed it in
--                                                  ext_autogradapi (sequence number 12, shapes)
--   hipLaunchKernel                 2000 ..  2500  -> op 1 KernelExecution "Cijk_gemm" 4000 .. 6000
--   hipMemcpyAsync                  3000 ..  3400  -> op 2 CopyHostToDevice 6500 .. 7000
--   hipGraphLaunch                 10000 .. 10500  -> ops 3 and 4, graph "Task"s 10600 .. 11600
--                                                     and 11600 .. 12600
--   UserMarker "aten::zero_, seq = 4, op_id = 9"
--                                  11000 .. 15000  an op by its text (sequence number 4)
--   hipMemsetAsync                 12000 .. 12200  -> op 5 FillBuffer 12700 .. 12800
--   ApiTable::writeRows (thread 51) 30000 .. 31000  RPD's own work: overhead, no FunctionEvent
-- So aten::mm has the kernel (2.000 us) and the copy (0.500 us); the graph's two kernels (1.000 us
-- each) go to "decode step", the innermost range around hipGraphLaunch; aten::zero_ has the fill.
CREATE TABLE "rocpd_kernelcodeobject" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "vgpr" integer NOT NULL, "sgpr" integer NOT NULL, "fbar" integer NOT NULL);
CREATE TABLE "rocpd_string" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "string" varchar(4096) NOT NULL);
CREATE TABLE "rocpd_barrierop" ("op_ptr_id" integer NOT NULL PRIMARY KEY REFERENCES "rocpd_op" ("id") DEFERRABLE INITIALLY DEFERRED, "signalCount" integer NOT NULL, "aquireFence" varchar(8) NOT NULL, "releaseFence" varchar(8) NOT NULL);
CREATE TABLE "rocpd_copyapi" ("api_ptr_id" integer NOT NULL PRIMARY KEY REFERENCES "rocpd_api" ("id") DEFERRABLE INITIALLY DEFERRED, "stream" varchar(18) NOT NULL, "size" integer NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "kind" integer NOT NULL, "dst" varchar(18) NOT NULL, "src" varchar(18) NOT NULL, "dstDevice" integer NOT NULL, "srcDevice" integer NOT NULL, "sync" bool NOT NULL, "pinned" bool NOT NULL);
CREATE TABLE "rocpd_op_inputSignals" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "from_op_id" integer NOT NULL REFERENCES "rocpd_op" ("id") DEFERRABLE INITIALLY DEFERRED, "to_op_id" integer NOT NULL REFERENCES "rocpd_op" ("id") DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE "rocpd_op" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "gpuId" integer NOT NULL, "queueId" integer NOT NULL, "sequenceId" integer NOT NULL, "completionSignal" varchar(18) NOT NULL, "start" integer NOT NULL, "end" integer NOT NULL, "description_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED, "opType_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE "rocpd_api" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "pid" integer NOT NULL, "tid" integer NOT NULL, "start" integer NOT NULL, "end" integer NOT NULL, "apiName_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED, "args_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE "rocpd_api_ops" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "api_id" integer NOT NULL REFERENCES "rocpd_api" ("id") DEFERRABLE INITIALLY DEFERRED, "op_id" integer NOT NULL REFERENCES "rocpd_op" ("id") DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE "rocpd_kernelapi" ("api_ptr_id" integer NOT NULL PRIMARY KEY REFERENCES "rocpd_api" ("id") DEFERRABLE INITIALLY DEFERRED, "stream" varchar(18) NOT NULL, "gridX" integer NOT NULL, "gridY" integer NOT NULL, "gridZ" integer NOT NULL, "workgroupX" integer NOT NULL, "workgroupY" integer NOT NULL, "workgroupZ" integer NOT NULL, "groupSegmentSize" integer NOT NULL, "privateSegmentSize" integer NOT NULL, "kernelArgAddress" varchar(18) NOT NULL, "aquireFence" varchar(8) NOT NULL, "releaseFence" varchar(8) NOT NULL, "codeObject_id" integer NOT NULL REFERENCES "rocpd_kernelcodeobject" ("id") DEFERRABLE INITIALLY DEFERRED, "kernelName_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE "rocpd_metadata" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "tag" varchar(4096) NOT NULL, "value" varchar(4096) NOT NULL);
CREATE TABLE "rocpd_monitor" ("id" integer NOT NULL PRIMARY KEY AUTOINCREMENT, "deviceType" varchar(16) NOT NULL, "deviceId" integer NOT NULL, "monitorType" varchar(16) NOT NULL, "start" integer NOT NULL, "end" integer NOT NULL, "value" varchar(255) NOT NULL);
CREATE TABLE "ext_autogradapi" ("api_ptr_id" integer NOT NULL PRIMARY KEY REFERENCES "rocpd_api" ("id") DEFERRABLE INITIALLY DEFERRED, "autogradName_id" integer NOT NULL REFERENCES "rocpd_string" ("id") DEFERRABLE INITIALLY DEFERRED, "seq" integer NOT NULL, "op_id" integer NOT NULL, "sizes" varchar(4096) NOT NULL, "input_op_ids" varchar(4096) NOT NULL);
INSERT INTO rocpd_metadata (tag, value) VALUES ('schema_version', '2'), ('session_count', '1');
INSERT INTO rocpd_string VALUES (1, ''), (2, 'UserMarker'), (3, 'hipLaunchKernel'), (4, 'hipGraphLaunch'),
  (5, 'hipMemcpyAsync'), (6, 'aten::mm'), (7, 'KernelExecution'), (8, 'Task'), (9, 'CopyHostToDevice'),
  (10, 'Cijk_gemm'), (11, 'graph_kernel_a'), (12, 'graph_kernel_b'), (13, 'decode step'),
  (14, 'ApiTable::writeRows'), (15, 'FillBuffer'), (16, 'hipMemsetAsync'), (17, 'aten::zero_, seq = 4, op_id = 9');
INSERT INTO rocpd_api VALUES
  (1, 50, 50, 0, 20000, 2, 13),
  (2, 50, 50, 1000, 9000, 2, 6),
  (3, 50, 50, 2000, 2500, 3, 1),
  (4, 50, 50, 3000, 3400, 5, 1),
  (5, 50, 50, 10000, 10500, 4, 1),
  (6, 50, 50, 11000, 15000, 2, 17),
  (7, 50, 50, 12000, 12200, 16, 1),
  (8, 50, 51, 30000, 31000, 14, 1);
INSERT INTO rocpd_op VALUES
  (1, 2, 0, 0, '', 4000, 6000, 10, 7),
  (2, 2, 0, 0, '', 6500, 7000, 1, 9),
  (3, 2, 0, 0, '', 10600, 11600, 11, 8),
  (4, 2, 0, 0, '', 11600, 12600, 12, 8),
  (5, 2, 0, 0, '', 12700, 12800, 1, 15);
INSERT INTO rocpd_api_ops VALUES (1, 3, 1), (2, 4, 2), (3, 5, 3), (4, 5, 4), (5, 7, 5);
INSERT INTO ext_autogradapi VALUES (2, 6, 12, 3, '[[4, 8], [8, 2]]', '');
